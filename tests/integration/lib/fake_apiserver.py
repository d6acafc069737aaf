#!/usr/bin/env python3
"""fake_apiserver.py PORTFILE -- just enough of a Kubernetes API server for
`kubectl apply --dry-run=client` without a cluster: API discovery for core/v1 (Secret, ConfigMap, Service,
PersistentVolumeClaim), batch/v1 (Job) and networking.k8s.io/v1 (NetworkPolicy), and 404 for every object (so kubectl plans a create). Listens on loopback and
writes its port to PORTFILE. Validation against the schema is off (--validate=false)."""
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


def res(name, kind, namespaced=True):
    return {"name": name, "singularName": kind.lower(), "namespaced": namespaced, "kind": kind,
            "verbs": ["create", "get", "list", "patch", "update", "delete"]}


DISCOVERY = {
    "/api": {"kind": "APIVersions", "versions": ["v1"],
             "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]},
    "/api/v1": {"kind": "APIResourceList", "groupVersion": "v1",
                "resources": [res("secrets", "Secret"), res("configmaps", "ConfigMap"), res("services", "Service"),
                              res("persistentvolumeclaims", "PersistentVolumeClaim"),
                              res("namespaces", "Namespace", False)]},
    "/apis": {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
        {"name": "batch", "versions": [{"groupVersion": "batch/v1", "version": "v1"}],
         "preferredVersion": {"groupVersion": "batch/v1", "version": "v1"}},
        {"name": "networking.k8s.io", "versions": [{"groupVersion": "networking.k8s.io/v1", "version": "v1"}],
         "preferredVersion": {"groupVersion": "networking.k8s.io/v1", "version": "v1"}}]},
    "/apis/batch/v1": {"kind": "APIResourceList", "groupVersion": "batch/v1", "resources": [res("jobs", "Job")]},
    "/apis/networking.k8s.io/v1": {"kind": "APIResourceList", "groupVersion": "networking.k8s.io/v1",
                                   "resources": [res("networkpolicies", "NetworkPolicy")]},
}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        path = self.path.split("?")[0].rstrip("/") or "/"
        body = DISCOVERY.get(path)
        code = 200
        if body is None:
            code = 404
            body = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404}
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
