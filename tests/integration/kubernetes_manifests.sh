#!/bin/bash
# kubernetes_manifests.sh -- deploy/kubernetes/ is the whole test in one apply, and it works.
# No cluster is available here, so:
#  1. `kubectl kustomize` renders the kustomization (secrets from make-secrets.sh) and
#     `kubectl apply -k --dry-run=client` plans every object against a loopback stand-in that
#     answers only API discovery (lib/fake_apiserver.py; schema validation off, --validate=false);
#  2. the rendered objects are checked: the controller Job and the Service that selects its pod,
#     the agents' Indexed Job (completions = the plan's agents.expect), the Secrets mounted where
#     the plan and the agents' command line read them, the agents' controller address = the
#     Service's name and port (= the plan's listen port), failure policies, no stale figures, and
#     Pod Security "restricted" (non-root, seccomp RuntimeDefault, no privilege escalation, ALL
#     capabilities dropped, allowed volume types) plus: no service-account token, no Secret in an
#     environment variable, size limits on emptyDirs, pinned images, NetworkPolicies that let only
#     the agents reach the controller;
#  3. an overlay (2 agents, capacity 2, a plan against simhost on loopback) is rendered and its
#     pods' commands are run as local processes (lib/kube_pods.py: env, Secret and ConfigMap
#     volumes laid out and moded as the kubelet does, mount paths mapped to local folders, the
#     Service at 127.0.0.1) -- the agents first, so they must wait for the controller -- and the
#     run must complete with both agents, its results on the claim's folder.
# kubectl: Debian 12's kubernetes-client (1.20, kustomize 2.0.3; scripts/install-deps installs it
# when no kubectl is present) or any newer one: the files use only what both understand.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
command -v kubectl >/dev/null || fail "kubectl is not installed (scripts/install-deps)"
K=$WORK/k
cp -r "$S/deploy/kubernetes" "$K"
rm -rf "$K/secrets"

# secrets: make-secrets.sh needs the password from the environment, and keeps what exists
env -u SESSMAX_PASSWORD sh "$K/make-secrets.sh" "$WORK/nopw" >/dev/null 2>&1 && fail "make-secrets.sh ran without a password"
sh "$K/make-secrets.sh" >"$WORK/secrets.log" || fail "make-secrets.sh failed"
PIN=$(sed -n 's/^controller certificate: //p' "$WORK/secrets.log")
sh "$K/make-secrets.sh" | grep -qF "$PIN" || fail "make-secrets.sh changed the certificate on a second run"
for f in token tls.crt tls.key password; do
    [ "$(stat -c %a "$K/secrets/$f")" = 600 ] || fail "secrets/$f is not 0600"
done

# 1. render and plan
python3 "$S/tests/integration/lib/fake_apiserver.py" "$WORK/port" &
PIDS+=($!)
wait_for 10 test -s "$WORK/port" || fail "the stand-in API server did not start"
cat >"$WORK/kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters: [{name: none, cluster: {server: "http://127.0.0.1:$(cat "$WORK/port")"}}]
contexts: [{name: none, context: {cluster: none, namespace: default}}]
current-context: none
users: []
YAML
export KUBECONFIG=$WORK/kubeconfig
kubectl kustomize "$K" >"$WORK/all.yaml" 2>"$WORK/kustomize.err" || fail "kubectl kustomize: $(cat "$WORK/kustomize.err")"
kubectl apply --dry-run=client --validate=false -k "$K" >"$WORK/apply.log" 2>&1 ||
    fail "kubectl apply -k --dry-run=client: $(cat "$WORK/apply.log")"
cat "$WORK/apply.log"
for o in configmap/sessmax-agent-config configmap/sessmax-plan secret/sessmax-agent-token \
         secret/sessmax-controller-tls secret/sessmax-target-password service/sessmax-controller \
         persistentvolumeclaim/sessmax-results job.batch/sessmax-controller job.batch/sessmax-agents \
         networkpolicy.networking.k8s.io/sessmax-controller networkpolicy.networking.k8s.io/sessmax-agents; do
    grep -q "^$o created (dry run)" "$WORK/apply.log" || fail "$o not created in the dry run"
done

# 2. the rendered objects
python3 - "$WORK/all.yaml" "$K/kustomization.yaml" "$S/docs/benchmarks.md" "$K/agents-job.yaml" <<'PY' ||
import re, shlex, sys, yaml
rendered, kustomization, bench, agents_file = sys.argv[1:]
def fail(msg): sys.exit("FAIL: " + msg)
k = yaml.safe_load(open(kustomization))
if k.get("apiVersion") != "kustomize.config.k8s.io/v1beta1" or k.get("kind") != "Kustomization":
    fail("kustomization.yaml has no apiVersion/kind")
objs = {(o["kind"], o["metadata"]["name"]): o for o in yaml.safe_load_all(open(rendered)) if o}
def get(kind, name):
    if (kind, name) not in objs: fail("no %s %s in the rendered objects" % (kind, name))
    return objs[(kind, name)]
ctl, agents, svc = get("Job", "sessmax-controller"), get("Job", "sessmax-agents"), get("Service", "sessmax-controller")
cfg = get("ConfigMap", "sessmax-agent-config")["data"]
plan = yaml.safe_load(get("ConfigMap", "sessmax-plan")["data"]["plan.yaml"])
cpod, apod = ctl["spec"]["template"], agents["spec"]["template"]
(cc,), (ac,) = cpod["spec"]["containers"], apod["spec"]["containers"]
# the Service selects the controller's pod, not the agents', and forwards to the plan's listen port
sel = svc["spec"]["selector"].items()
if not sel <= cpod["metadata"]["labels"].items(): fail("the Service does not select the controller pod")
if sel <= apod["metadata"]["labels"].items(): fail("the Service also selects the agent pods")
(port,) = svc["spec"]["ports"]
listen = int(plan["agents"]["listen"].rsplit(":", 1)[1])
if port["targetPort"] != listen or cc["ports"][0]["containerPort"] != listen:
    fail("Service targetPort %s / containerPort / plan listen %d differ" % (port["targetPort"], listen))
if cfg["controller"] != "%s:%d" % (svc["metadata"]["name"], port["port"]):
    fail("the agents connect to %s, not the Service %s:%d" % (cfg["controller"], svc["metadata"]["name"], port["port"]))
# the agents: Indexed, as many as the plan expects, the capacity the plan assumes
s = agents["spec"]
if s.get("completionMode") != "Indexed": fail("the agents' Job is not Indexed")
if not s["completions"] == s["parallelism"] == plan["agents"]["expect"]:
    fail("completions %s / parallelism %s / plan agents.expect %s differ" % (s["completions"], s["parallelism"], plan["agents"]["expect"]))
if int(cfg["capacity"]) != plan["agents"]["capacity"] or plan["agents"]["expect"] * int(cfg["capacity"]) < plan["sessions"]:
    fail("config capacity %s does not match the plan" % cfg["capacity"])
if ctl["spec"]["backoffLimit"] != 0: fail("a retried controller would be a second run")
rules = s.get("podFailurePolicy", {}).get("rules", [])
if s["backoffLimit"] < 1 or not any(r["action"] == "FailJob" and 69 in r["onExitCodes"]["values"] for r in rules):
    fail("agents: want retries, but none after 'no controller' (exit 69)")
# mounts: the controller's certificate from the Secret, in both pods; the agents get no key
def mounts(pod, c):
    vols = {v["name"]: v for v in pod["spec"]["volumes"]}
    return {m["mountPath"]: vols[m["name"]] for m in c["volumeMounts"]}
cm, am = mounts(cpod, cc), mounts(apod, ac)
def secret_at(ms, name): return [p for p, v in ms.items() if v.get("secret", {}).get("secretName") == name]
(ctls,), (atls,), (atok,) = secret_at(cm, "sessmax-controller-tls"), secret_at(am, "sessmax-controller-tls"), secret_at(am, "sessmax-agent-token")
if [i["key"] for i in am[atls]["secret"].get("items", [])] != ["tls.crt"]: fail("the agents must mount tls.crt only")
if get("Secret", "sessmax-controller-tls")["type"] != "kubernetes.io/tls": fail("the TLS Secret is not kubernetes.io/tls")
if plan["agents"]["tls_cert"] != ctls + "/tls.crt": fail("the plan's tls_cert is not the mounted Secret")
cmd = " ".join(cc["args"])
if "cat %s/tls.key >%s" % (ctls, plan["agents"]["tls_key"]) not in cmd or "umask 077" not in cmd:
    fail("the controller does not make the owner-only copy of its key the plan names")
if "/etc/sessmax/plan.yaml" not in cmd or not any(v.get("configMap", {}).get("name") == "sessmax-plan" for p, v in cm.items() if p == "/etc/sessmax"):
    fail("the controller does not run the plan from the ConfigMap")
if not any("persistentVolumeClaim" in v for p, v in cm.items() if plan["results"].startswith(p + "/")):
    fail("the results do not go to the claim")
words = shlex.split(" ".join(ac["args"]))
def arg(flag): return words[words.index(flag) + 1] if flag in words else None
if arg("--tls-pin-cert") != atls + "/tls.crt": fail("the agents do not pin the mounted certificate")
if arg("--token-fd") != "3" or "3<%s/token" % atok not in words: fail("the agents do not read the token from the Secret")
if arg("--controller-wait") != "$SESSMAX_CONTROLLER_WAIT" or not cfg.get("controller_wait"): fail("no --controller-wait")
env = {e["name"]: e for e in ac.get("env", [])}
if "SESSMAX_TOKEN" in env: fail("the agents' token must not be an environment variable")
# secrets are files, never environment variables of the pod spec
for c in (cc, ac):
    for e in c.get("env", []):
        if "secretKeyRef" in e.get("valueFrom", {}): fail("%s: %s comes from a Secret as an environment variable" % (c["name"], e["name"]))
(ctok,), (cpw,) = secret_at(cm, "sessmax-agent-token"), secret_at(cm, "sessmax-target-password")
pwfile = plan["credentials"].get("password_file")
if not pwfile or "cat %s/password >%s" % (cpw, pwfile) not in cmd: fail("the controller does not copy the password file the plan names")
if "SESSMAX_TOKEN=$(cat %s/token)" % ctok not in cmd: fail("the controller does not read the token from its Secret file")
# Pod Security "restricted" (https://kubernetes.io/docs/concepts/security/pod-security-standards/)
ALLOWED_VOLUMES = {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"}
def restricted(name, pod):
    ps, psc = pod["spec"], pod["spec"].get("securityContext", {})
    for k in ("hostNetwork", "hostPID", "hostIPC"):
        if ps.get(k): fail("%s: %s" % (name, k))
    if ps.get("automountServiceAccountToken") is not False: fail("%s: the service-account token is mounted" % name)
    for v in ps.get("volumes", []):
        kinds = set(v) - {"name"}
        if not kinds <= ALLOWED_VOLUMES: fail("%s: volume %s of type %s" % (name, v["name"], kinds))
        if "emptyDir" in v and not v["emptyDir"].get("sizeLimit"): fail("%s: emptyDir %s has no sizeLimit" % (name, v["name"]))
    for c in ps["containers"] + ps.get("initContainers", []):
        sc = c.get("securityContext", {})
        def pick(k): return sc.get(k, psc.get(k))
        if pick("runAsNonRoot") is not True: fail("%s/%s: runAsNonRoot" % (name, c["name"]))
        if pick("runAsUser") == 0: fail("%s/%s: runAsUser 0" % (name, c["name"]))
        if (pick("seccompProfile") or {}).get("type") not in ("RuntimeDefault", "Localhost"):
            fail("%s/%s: seccompProfile must be RuntimeDefault" % (name, c["name"]))
        if sc.get("privileged") or sc.get("allowPrivilegeEscalation") is not False:
            fail("%s/%s: privilege escalation allowed" % (name, c["name"]))
        caps = sc.get("capabilities", {})
        if "ALL" not in caps.get("drop", []) or set(caps.get("add", [])) - {"NET_BIND_SERVICE"}:
            fail("%s/%s: capabilities must drop ALL" % (name, c["name"]))
        if any("hostPort" in p for p in c.get("ports", [])): fail("%s/%s: hostPort" % (name, c["name"]))
        img = c["image"]
        if ":" not in img.rsplit("/", 1)[-1] or img.endswith(":latest"): fail("%s/%s: image %s is not pinned" % (name, c["name"], img))
restricted("controller", cpod)
restricted("agents", apod)
# NetworkPolicies: only agent pods reach the controller's listener; the agents may reach it
def labels_of(sel): return sel.get("matchLabels", {}).items()
npc, npa = get("NetworkPolicy", "sessmax-controller"), get("NetworkPolicy", "sessmax-agents")
for np, pod in ((npc, cpod), (npa, apod)):
    if not labels_of(np["spec"]["podSelector"]) <= pod["metadata"]["labels"].items(): fail("%s selects the wrong pods" % np["metadata"]["name"])
    if set(np["spec"]["policyTypes"]) != {"Ingress", "Egress"}: fail("%s: want Ingress and Egress" % np["metadata"]["name"])
ing = npc["spec"]["ingress"]
if len(ing) != 1 or [p["port"] for p in ing[0]["ports"]] != [listen]: fail("controller ingress: the listen port only")
for f in ing[0]["from"]:
    if set(f) != {"podSelector"} or not labels_of(f["podSelector"]) <= apod["metadata"]["labels"].items() \
            or labels_of(f["podSelector"]) <= cpod["metadata"]["labels"].items():
        fail("controller ingress: from the agent pods only")
if npa["spec"].get("ingress"): fail("nothing may connect to the agents")
if not any(any(labels_of(t.get("podSelector", {})) <= cpod["metadata"]["labels"].items() for t in e.get("to", []))
           and [p["port"] for p in e["ports"]] == [listen] for e in npa["spec"]["egress"]):
    fail("the agents may not reach the controller")
# the sizing comment quotes the current per-session memory figure of docs/benchmarks.md
m = re.search(r"agent: RSS per session[^|]*\|\s*([0-9.]+) MiB", open(bench).read())
if not m or (m.group(1) + " MiB RSS per session") not in open(agents_file).read():
    fail("agents-job.yaml does not quote the current %s MiB per session of docs/benchmarks.md" % (m and m.group(1)))
print("rendered objects: ok")
PY
    fail "the rendered objects are wrong"
grep -q "^FROM debian:" "$K/Containerfile" || fail "the image is not built from Debian"

# 3. the whole test as local processes: an overlay of 2 agents x 2 sessions against simhost
start_simhost 10
PORT=$(free_port)
mkdir "$WORK/overlay"
cat >"$WORK/overlay/plan.yaml" <<YAML
version: 1
name: k8s-local
target: {host: 127.0.0.1, port: $SIM_PORT, verify: false, security: tls}
credentials: {user: "simuser{n:03}", password_file: /run/sessmax/password}
platform: simhost-e2e
workload: /usr/local/share/sessmax/workloads/simhost-task-worker.yaml
sessions: 4
launch_window: 2s
steady_state: 10s
logoff_deadline: 20s
agents: {expect: 2, capacity: 2, listen: "127.0.0.1:$PORT", wait: 60s, heartbeat_timeout: 5s,
         tls_cert: /run/secrets/sessmax-tls/tls.crt, tls_key: /run/sessmax/tls.key}
results: /results/results.db
YAML
# patchesJson6902 with files, not `patches`: Debian 12's kubectl 1.20 has kustomize 2.0.3
printf '%s\n' '- {op: replace, path: /spec/completions, value: 2}' '- {op: replace, path: /spec/parallelism, value: 2}' \
    >"$WORK/overlay/agents.patch.yaml"
printf '%s\n' '- {op: replace, path: /data/capacity, value: "2"}' '- {op: replace, path: /data/controller_wait, value: 60s}' \
    "- {op: replace, path: /data/controller, value: \"sessmax-controller:$PORT\"}" >"$WORK/overlay/config.patch.yaml"
printf '%s\n' "- {op: replace, path: /spec/ports/0/port, value: $PORT}" \
    "- {op: replace, path: /spec/ports/0/targetPort, value: $PORT}" >"$WORK/overlay/service.patch.yaml"
cat >"$WORK/overlay/kustomization.yaml" <<YAML
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
bases: [../k]    # not resources: kustomize 2.0.3 takes directories only as bases
configMapGenerator:
  - {name: sessmax-plan, behavior: replace, files: [plan.yaml]}
patchesJson6902:
  - {target: {group: batch, version: v1, kind: Job, name: sessmax-agents}, path: agents.patch.yaml}
  - {target: {version: v1, kind: ConfigMap, name: sessmax-agent-config}, path: config.patch.yaml}
  - {target: {version: v1, kind: Service, name: sessmax-controller}, path: service.patch.yaml}
YAML
kubectl kustomize "$WORK/overlay" >"$WORK/local.yaml" 2>"$WORK/overlay.err" ||
    fail "the overlay does not render: $(cat "$WORK/overlay.err")"
mkdir "$WORK/pods"
export PATH=$B:$PATH
IMG=(--image "/usr/local/share/sessmax/workloads=$S/workloads")
python3 "$S/tests/integration/lib/kube_pods.py" "$WORK/local.yaml" "$WORK/pods" sessmax-agents "${IMG[@]}" \
    >"$WORK/agents-pods.log" 2>&1 &
AGENTS_JOB=$!
PIDS+=("$AGENTS_JOB")
for i in 0 1; do
    wait_for 20 grep -qs "no controller at 127.0.0.1:$PORT yet" "$WORK/pods/sessmax-agents-$i.log" ||
        fail "agent $i did not wait for the controller: $(cat "$WORK/agents-pods.log" "$WORK/pods/sessmax-agents-$i.log")"
done
set +e
python3 "$S/tests/integration/lib/kube_pods.py" "$WORK/local.yaml" "$WORK/pods" sessmax-controller "${IMG[@]}" \
    >"$WORK/controller-pods.log" 2>&1
wait "$AGENTS_JOB"
set -e
cat "$WORK/controller-pods.log" "$WORK/pods/sessmax-controller-0.log"
crc=$(cat "$WORK/pods/sessmax-controller-0.rc")
[ "$crc" -le 2 ] || fail "the controller pod exited $crc"
for i in 0 1; do
    [ "$(cat "$WORK/pods/sessmax-agents-$i.rc")" = 0 ] || fail "agent pod $i: $(cat "$WORK/pods/sessmax-agents-$i.log")"
done
grep -qF -- "--tls-pin $PIN" "$WORK/pods/sessmax-controller-0.log" || fail "the controller's pin is not the Secret's $PIN"
KEY=$WORK/pods/sessmax-controller-0/volumes/tls/tls.key     # as the kubelet leaves it: why the copy
[ -L "$KEY" ] && [ "$(stat -L -c %a "$KEY")" = 440 ] || fail "the Secret's key file is not laid out as under fsGroup"
R=$WORK/pods/pvc/sessmax-results
[ -s "$R/report.html" ] && [ -s "$R/verdict.json" ] || fail "no report or verdict on the results claim"
db() { sqlite3 "$R/results.db" "$1"; }
[ "$(db "select group_concat(name) from (select name from agents order by name)")" = \
  "k8s-0-sessmax-agents-0,k8s-1-sessmax-agents-1" ] || fail "agents: $(db "select name from agents")"
[ "$(db "select count(*) from sessions where state = 'ended'")" = 4 ] || fail "sessions did not end"
echo PASS
