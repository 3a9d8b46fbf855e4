// Store acknowledgements: the model and the XML both ends exchange.
export { type AckParties, buildAcknowledgement, parseAcknowledgement } from './ack-xml';
export * from './model';
