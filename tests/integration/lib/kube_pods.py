#!/usr/bin/env python3
"""kube_pods.py RENDERED ROOT JOB [--image PATH=DIR]... -- runs the pods of Job JOB from the
rendered manifests (`kubectl kustomize` output) as local processes, the way a kubelet would start
them, so a test can run a whole deployment on loopback without a cluster.

What it does like Kubernetes: one pod per completion index (Indexed Jobs get JOB_COMPLETION_INDEX,
every pod its HOSTNAME), env from value / configMapKeyRef / secretKeyRef, volumes written the way
the kubelet writes them (configMap and secret keys as symlinks into a `..data` directory, mode
defaultMode or items[].mode; with the pod's fsGroup, Secret and ConfigMap files get group read
added, 0400 -> 0440, as the kubelet does), emptyDir, one shared directory per
PersistentVolumeClaim, workingDir, command + args. A Service of the same file is reached at
127.0.0.1 on its targetPort: "SERVICE:PORT" in env values and args becomes "127.0.0.1:TARGETPORT".

What it cannot do and replaces: there is no container filesystem, so each mountPath (and each
--image PATH, a directory the image ships) is mapped to a local directory by rewriting that path
in the command, args, env values, workingDir and the mounted ConfigMap files; the image's
binaries come from PATH. Every rewrite is printed. Each pod's output goes to ROOT/POD.log and its
exit status to ROOT/POD.rc; the exit status is 0 when every pod exited 0, else 1."""
import argparse
import base64
import os
import re
import subprocess
import sys

import yaml


def objects(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def find(objs, kind, name):
    for o in objs:
        if o.get("kind") == kind and o["metadata"]["name"] == name:
            return o
    sys.exit("kube_pods.py: no %s named %s in the rendered manifests" % (kind, name))


def key_data(obj, key):
    if key in obj.get("stringData", {}):
        return obj["stringData"][key].encode()
    if key in obj.get("data", {}):
        return base64.b64decode(obj["data"][key]) if obj["kind"] == "Secret" else obj["data"][key].encode()
    sys.exit("kube_pods.py: %s %s has no key %s" % (obj["kind"], obj["metadata"]["name"], key))


def write_atomic(dirpath, files, mode):
    """Keys as the kubelet's atomic writer lays them out: DIR/..TS/KEY, DIR/..data -> ..TS, DIR/KEY -> ..data/KEY."""
    ts = os.path.join(dirpath, "..2026_01_01_00_00_00.000000001")
    os.makedirs(ts, exist_ok=True)
    for rel, (data, m) in files.items():
        full = os.path.join(ts, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
        os.chmod(full, m if m is not None else mode)
    os.symlink(os.path.basename(ts), os.path.join(dirpath, "..data"))
    for rel in files:
        top = rel.split("/")[0]
        if not os.path.lexists(os.path.join(dirpath, top)):
            os.symlink(os.path.join("..data", top), os.path.join(dirpath, top))


def key_volume(objs, vol, kind, dirpath, fs_group):
    src = vol["configMap"] if kind == "ConfigMap" else vol["secret"]
    obj = find(objs, kind, src["name"] if kind == "ConfigMap" else src["secretName"])
    keys = list(obj.get("data", {})) + list(obj.get("stringData", {}))
    items = src.get("items") or [{"key": k, "path": k} for k in keys]
    mode = src.get("defaultMode", 0o644)
    extra = 0o440 if fs_group is not None else 0       # the kubelet's SetVolumeOwnership, read-only volumes
    files = {i["path"]: (key_data(obj, i["key"]), (i.get("mode", mode)) | extra) for i in items}
    write_atomic(dirpath, files, mode | extra)


def services(objs):
    """NAME:PORT -> 127.0.0.1:TARGETPORT for every Service in the file."""
    out = {}
    for o in objs:
        if o.get("kind") == "Service":
            for p in o["spec"]["ports"]:
                out["%s:%d" % (o["metadata"]["name"], p["port"])] = "127.0.0.1:%d" % p.get("targetPort", p["port"])
    return out


def rewriter(maps):
    pairs = sorted(maps.items(), key=lambda kv: -len(kv[0]))
    pattern = re.compile("|".join(re.escape(k) + r"(?=[/\s\"':]|$)" for k, _ in pairs)) if pairs else None
    table = dict(pairs)
    return lambda s: pattern.sub(lambda m: table[m.group(0)], s) if pattern and isinstance(s, str) else s


def pod_env(objs, c, pod, index):
    env = {"PATH": os.environ["PATH"], "HOSTNAME": pod, "HOME": "/nonexistent", "LANG": "C.UTF-8"}
    if index is not None:
        env["JOB_COMPLETION_INDEX"] = str(index)
    for e in c.get("env", []):
        if "value" in e:
            env[e["name"]] = e["value"]
            continue
        ref = e["valueFrom"]
        if "configMapKeyRef" in ref:
            env[e["name"]] = key_data(find(objs, "ConfigMap", ref["configMapKeyRef"]["name"]),
                                      ref["configMapKeyRef"]["key"]).decode()
        elif "secretKeyRef" in ref:
            env[e["name"]] = key_data(find(objs, "Secret", ref["secretKeyRef"]["name"]),
                                      ref["secretKeyRef"]["key"]).decode()
        else:
            sys.exit("kube_pods.py: env %s: only value, configMapKeyRef and secretKeyRef are supported" % e["name"])
    return env


def start_pod(objs, job, root, i, indexed, images):
    spec = job["spec"]["template"]["spec"]
    pod = "%s-%d" % (job["metadata"]["name"], i)
    index = i if indexed else None
    proot = os.path.join(root, pod)
    (c,) = spec["containers"]
    vols = {v["name"]: v for v in spec.get("volumes", [])}
    fs_group = spec.get("securityContext", {}).get("fsGroup")
    maps = dict(images)
    for m in c.get("volumeMounts", []):
        v = vols[m["name"]]
        if "persistentVolumeClaim" in v:
            d = os.path.join(root, "pvc", v["persistentVolumeClaim"]["claimName"])
        else:
            d = os.path.join(proot, "volumes", m["name"])
        os.makedirs(d, exist_ok=True)
        if "configMap" in v:
            key_volume(objs, v, "ConfigMap", d, fs_group)
        elif "secret" in v:
            key_volume(objs, v, "Secret", d, fs_group)
        elif "emptyDir" in v or "persistentVolumeClaim" in v:
            os.chmod(d, 0o777)
        else:
            sys.exit("kube_pods.py: volume %s: unsupported kind" % m["name"])
        maps[m["mountPath"]] = d
    maps.update(services(objs))
    rw = rewriter(maps)
    for m in c.get("volumeMounts", []):            # the plan in a ConfigMap names paths of this pod
        if "configMap" in vols[m["name"]]:
            data_dir = os.path.join(maps[m["mountPath"]], "..data")
            for name in os.listdir(data_dir):
                p = os.path.join(data_dir, name)
                mode = os.stat(p).st_mode & 0o7777
                os.chmod(p, 0o644)
                with open(p) as f:
                    text = f.read()
                with open(p, "w") as f:
                    f.write(rw(text))
                os.chmod(p, mode)
    env = pod_env(objs, c, pod, index)
    env.update({e["name"]: rw(env[e["name"]]) for e in c.get("env", [])})   # the pod's own values only
    argv = [rw(a) for a in c.get("command", []) + c.get("args", [])]
    cwd = rw(c["workingDir"]) if "workingDir" in c else proot
    for k in sorted(maps, key=len, reverse=True):
        print("kube_pods.py: %s: %s -> %s" % (pod, k, maps[k]))
    log = open(os.path.join(root, pod + ".log"), "w")
    return pod, subprocess.Popen(argv, env=env, cwd=cwd, stdout=log, stderr=subprocess.STDOUT)


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n")[0].split(" -- ")[0])
    ap.add_argument("rendered")
    ap.add_argument("root")
    ap.add_argument("job")
    ap.add_argument("--image", action="append", default=[], metavar="PATH=DIR")
    a = ap.parse_args()
    images = dict(kv.split("=", 1) for kv in a.image)
    objs = objects(a.rendered)
    job = find(objs, "Job", a.job)
    n = job["spec"].get("completions", 1)
    indexed = job["spec"].get("completionMode") == "Indexed"
    pods = [start_pod(objs, job, a.root, i, indexed, images) for i in range(n)]
    ok = True
    for pod, proc in pods:
        rc = proc.wait()
        with open(os.path.join(a.root, pod + ".rc"), "w") as f:
            f.write("%d\n" % rc)
        ok = ok and rc == 0
    sys.exit(0 if ok else 1)


main()
