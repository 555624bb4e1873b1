"""HTTP plumbing shared by every listener: bearer tokens, body limits, the request ledger
(:mod:`.guards`) and the error bodies of the wire format (:mod:`.wire`, interop §2)."""
