// Omni as a DDEX party: the sender of every message. A real DPID is issued by DDEX on registration; until
// then this one (in the DPID pattern) identifies us to the simulator and to stores under certification.
import type { ErnMessagingParty } from '../ddex/model';

export const OMNI_SENDER: ErnMessagingParty = { partyId: 'PADPIDA2026112401O', name: 'Omni Distribution' };
