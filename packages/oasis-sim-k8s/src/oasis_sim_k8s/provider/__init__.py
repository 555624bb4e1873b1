"""The OASIS provider: :class:`~.simk8s.SimK8sProvider` (spec 04 §2.2), its factory
(entry point), petri's ``/v1`` HTTP API over it and the ``oasis provider serve`` target."""
