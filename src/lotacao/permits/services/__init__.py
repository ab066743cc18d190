"""Write services of the permits app: each transition of the permit's state machine.

Keyword-only, atomic, validated (Portuguese messages naming the article), audited. What differs
per law is read from the pack (lotacao.permits.rules); nothing here knows a jurisdiction's name.
Each transition starts with `require(permit, action, on)`: the statuses it may start from are
declared once, in `lotacao.permits.states`, which the screens read too.

One module per stage of the law's procedure; callers keep importing from here
(`from lotacao.permits import services; services.grant_permit(...)`):

- application   the application (requerimento) and its assessment
- grant         the grant: quotas under the jurisdiction's lock, term, number
- term          renewal (prorrogação), the automatic expiry, the end with the delegation
- sanctions     suspension, reinstatement, revocation (cassação), re-entry bans
- transfer      transfer to successors or third parties, and withdrawal (desistência)
- agents        the holder's agents (prepostos)
- existing      permits and agents granted before this system
- common        the steps the stages share
"""

from __future__ import annotations

from lotacao.audit.services import record
from lotacao.permits.eligibility import check_eligibility
from lotacao.permits.services.agents import (
    add_agent,
    end_agent,
    restore_agent,
    revoke_agent,
    shorten_agent_suspension,
    suspend_agent,
)
from lotacao.permits.services.application import apply_for_permit, assess_application
from lotacao.permits.services.existing import import_existing_agent, import_existing_permit
from lotacao.permits.services.grant import grant_permit
from lotacao.permits.services.sanctions import (
    lift_ban,
    record_lost_service_ban,
    reinstate_permit,
    restore_permit,
    revoke_permit,
    set_suspension_end,
    suspend_permit,
)
from lotacao.permits.services.term import (
    end_provisional_permit,
    expire_due,
    expire_permit,
    extinguish_permit,
    renew_permit,
)
from lotacao.permits.services.transfer import TRANSFER_CAUSES, transfer_permit, withdraw_permit

__all__ = [
    "TRANSFER_CAUSES",
    "add_agent",
    "apply_for_permit",
    "assess_application",
    "check_eligibility",
    "end_agent",
    "end_provisional_permit",
    "expire_due",
    "expire_permit",
    "extinguish_permit",
    "grant_permit",
    "import_existing_agent",
    "import_existing_permit",
    "lift_ban",
    "record",
    "record_lost_service_ban",
    "reinstate_permit",
    "renew_permit",
    "restore_agent",
    "restore_permit",
    "revoke_agent",
    "revoke_permit",
    "set_suspension_end",
    "shorten_agent_suspension",
    "suspend_agent",
    "suspend_permit",
    "transfer_permit",
    "withdraw_permit",
]
