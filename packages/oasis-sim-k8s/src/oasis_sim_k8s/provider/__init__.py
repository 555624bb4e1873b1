"""The OASIS provider: :class:`~.simk8s.SimK8sProvider` (spec 04 §2.2), its factory
(entry point), petri's ``/v1`` HTTP API over it and the ``oasis provider serve`` target."""

from .faults import Faults
from .simk8s import SimK8sProvider

#: ``oasis_sim_k8s.provider`` was the provider's module before the rooms (issue 33): its two
#: public names stay importable from here
__all__ = ["Faults", "SimK8sProvider"]
