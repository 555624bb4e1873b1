"""Malformed writes over every write verb are 400/422 ``Status`` answers, never a 500, and each
is audited (issue 25 item 2: "168 of 220 malformed writes gave 500"): the body's shape is
checked before admission (:mod:`oasis_sim_k8s.cluster.shapes`), as the real API server decodes a body
into typed structs before anything reads it."""

from __future__ import annotations

from pathlib import Path

import httpx

from .support import cluster

PATHS = {
    "configmaps": "/api/v1/namespaces/shop/configmaps",
    "pods": "/api/v1/namespaces/shop/pods",
    "services": "/api/v1/namespaces/shop/services",
    "deployments": "/apis/apps/v1/namespaces/shop/deployments",
    "rolebindings": "/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings",
}
BODIES = [
    "{",
    '"x"',
    "null",
    '{"metadata":5}',
    '{"metadata":{"name":5}}',
    '{"metadata":{"name":"x","labels":"a"}}',
    '{"metadata":{"name":"x","annotations":[1]}}',
    '{"metadata":{"name":"x","ownerReferences":"o","finalizers":"f"}}',
    '{"metadata":{"name":"x"},"spec":"s"}',
    '{"metadata":{"name":"x"},"spec":{"replicas":"many","template":5}}',
    '{"metadata":{"name":"x"},"spec":{"containers":"c"}}',
    '{"metadata":{"name":"x"},"spec":{"template":{"spec":{"containers":[{"name":1}]}}}}',
    '{"metadata":{"name":"x"},"spec":{"selector":"s","ports":"p"}}',
    '{"metadata":{"name":"x"},"data":[1],"stringData":5}',
    '{"metadata":{"name":"x"},"rules":"r","subjects":5,"roleRef":"x"}',
    '{"metadata":{"name":"x"}}',
    "a: [b",
]
#: (method, path suffix, content type): create, update, and three patch types
VERBS = [
    ("POST", "", "application/json"),
    ("PUT", "/x", "application/json"),
    ("PATCH", "/x", "application/merge-patch+json"),
    ("PATCH", "/x", "application/json-patch+json"),
    ("PATCH", "/x?fieldManager=kubectl", "application/apply-patch+yaml"),
]


def test_no_malformed_write_is_a_500_and_every_one_is_audited(tmp_path: Path) -> None:
    with cluster(tmp_path, need_kubectl=False) as c:
        client = httpx.Client(verify=False, headers={"Authorization": f"Bearer {c.token}"})
        wrong = []
        sent = 0
        for resource, path in PATHS.items():
            for body in BODIES:
                for method, suffix, media in VERBS:
                    before = len(c.env.audit.entries)
                    got = client.request(
                        method, c.url + path + suffix, content=body, headers={"content-type": media}
                    )
                    sent += 1
                    audited = c.env.audit.entries[before:]
                    refused = got.status_code >= 400
                    status = got.json().get("kind") == "Status" if refused else True
                    if got.status_code >= 500 or not audited or not status:
                        wrong.append((resource, method, media, body, got.status_code, len(audited)))
        assert sent == len(PATHS) * len(BODIES) * len(VERBS)
        assert wrong == [], f"{len(wrong)} of {sent} malformed writes: {wrong[:10]}"
        # the cluster still works: nothing malformed was stored for a controller to trip on
        assert client.get(c.url + "/apis/apps/v1/namespaces/shop/deployments").status_code == 200
