"""The fault catalogue of the Software Infrastructure evaluators (issue 14).

Fault classes of container platforms and services, each a comma-separated phrase list
(``*`` a word prefix). Ground truth (:mod:`.._truth`) reads a log line's error signature
through them, and claims (:mod:`.._claims`) judge an asserted cause by the class it names.
This catalogue is the SI plugin's contribution to the shared catalogue; another plugin adds
classes through its own :class:`~..registry.Evaluators` (``fault_classes``).
"""

from __future__ import annotations

FAULT_CLASSES: dict[str, str] = {
    "memory": "OOM*, out of memory, out-of-memory, memory leak*, memory limit*, "
    "memory pressure, exit code 137, heap*",
    "cpu": "cpu*, throttl*, processor*",
    "configuration": "configmap*, config map*, config key*, configuration key*, missing key*, "
    "environment variable*, env var*, secret key*, misconfigur*",
    "image": "image pull*, imagepullbackoff, errimagepull, image tag*, manifest unknown, registry",
    "certificate": "certificate*, cert, certs, tls, ssl, x509, x.509",
    "connection-pool": "connection pool*, pool exhaust*, exhausted pool*, pool size, "
    "too many connections, max connections, connection limit*",
    # kubectl's short name and its ``np/<name>`` form name the object too (rule 295)
    "network-policy": "networkpolic*, network polic*, firewall*, netpol*, np/*",
    "endpoints": "endpoint*, service selector*, selector matches",
    "probe": "readiness*, liveness*, probe*",
    "init-container": "init container*, initcontainer*, init-container*",
    "migration": "migration*, schema*",
    "rollout": "rollout*, rolled out, roll-out, new version*, image version*, faulty release*, "
    "bad deploy*, recent deploy*, new release*, regression*",
    "dns": "dns, coredns, nxdomain, name resolution, resolv*, no such host",
    "quota": "quota*, resourcequota*, limitrange*, exceeded quota",
    "storage": "pvc*, persistentvolumeclaim*, persistent volume*, volume claim*, disk*, "
    "storageclass*, storage class*, no space left",
    "control-plane": "etcd, control plane, apiserver, api server, api-server",
    "node": "node not ready, notready, node failure, kubelet, node pressure, diskpressure, "
    "memorypressure, node down",
    "scheduling": "unschedulable, insufficient cpu, insufficient memory, cannot be scheduled, "
    "failedscheduling, no nodes available",
    "database-lock": "deadlock*, lock contention, table lock*, row lock*, slow quer*",
    "rbac": "rbac, permission denied, forbidden, unauthori*, service account token*",
    "capacity": "overload*, high load, heavy load, too much traffic, traffic spike*, "
    "load spike*, under-provisioned, not enough replicas",
    "outage": "is down, are down, was down, were down, went down, outage*",
}

#: rule 600: the everyday words a fault class is named by ("The root cause is memory.", "The
#: cause is a missing setting."): a root cause whose head is one of them names the class only
#: where the next sentence states the class's evidence in the catalogue's words (:mod:`.._plain_cause`)
PLAIN_WORDS: dict[str, str] = {
    "memory": "memory, ram",
    "configuration": "setting*, configuration, configuration value*, config, config value*",
    "connection-pool": "connections, database connections, db connections, pool",
    "network-policy": "network rule*, traffic rule*, access rule*",
    "dns": "name lookup*, address lookup*, hostname lookup*, name resolution",
    "storage": "storage, disk space, space",
    "probe": "health check*",
    "image": "image, container image",
    "rbac": "permission*, access right*",
    "node": "machine*",
    "capacity": "load, traffic",
}

#: words of SI's verification sentences ("agent identified recurring ... approaching limit")
#: that are never ground-truth terms (:func:`.._truth.stop_words`)
STOP_WORDS = frozenset({"agent", "identified", "approaching", "recurring"})
