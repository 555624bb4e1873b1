"""The cluster model: the object store, the API server and its admission, RBAC and audit,
the controllers, nodes, pods and their status, simulated time (SI provider guide §1-§2).
It imports no other room of the simulator."""
