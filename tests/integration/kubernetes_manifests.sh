#!/bin/bash
# kubernetes_manifests.sh -- deploy/kubernetes/ passes `kubectl apply --dry-run=client`. No cluster
# is available here: kubectl still needs API discovery for a client dry-run, so a loopback stand-in
# (lib/fake_apiserver.py) answers discovery and 404 for objects; schema validation is off
# (--validate=false). Also checks the objects kubectl would create and the kustomization.
source "$SESSMAX_SOURCE_DIR/tests/integration/lib/controller.sh"
command -v kubectl >/dev/null || fail "kubectl is not installed (scripts/install-deps)"
K=$S/deploy/kubernetes

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
kubectl apply --dry-run=client --validate=false -f "$K/secret.yaml" -f "$K/config.yaml" -f "$K/agents-job.yaml" \
    >"$WORK/apply.log" 2>&1 || fail "kubectl apply --dry-run=client: $(cat "$WORK/apply.log")"
cat "$WORK/apply.log"
for o in "secret/sessmax-agent-token" "configmap/sessmax-agent-config" "job.batch/sessmax-agents"; do
    grep -q "^$o created (dry run)" "$WORK/apply.log" || fail "$o not created in the dry run"
done
kubectl kustomize "$K" >"$WORK/all.yaml" || fail "kustomize failed"
grep -q "completionMode: Indexed" "$WORK/all.yaml" || fail "the Job is not Indexed"
grep -q -- "--token-file" "$WORK/all.yaml" && grep -q "mountPath: /run/secrets/sessmax" "$WORK/all.yaml" || fail "token not from the mounted Secret"
grep -q "SESSMAX_TOKEN" "$WORK/all.yaml" && fail "the token must not be an environment variable"
grep -q "^FROM debian:" "$K/Containerfile" || fail "the agent image is not built from Debian"
echo PASS
