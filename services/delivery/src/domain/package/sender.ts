// Omni as a DDEX party: the sender of every message. A real DPID is issued by DDEX on registration and set
// with DDEX_SENDER_PARTY_ID (production refuses to send under this made-up one, which only the simulator
// and stores under certification would accept).
import type { ErnMessagingParty } from '../ddex/model';

export const DEFAULT_SENDER: ErnMessagingParty = { partyId: 'PADPIDA2026112401O', name: 'Omni Distribution' };
