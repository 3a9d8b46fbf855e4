// Secret values anyone can read in this repository: the throwaway ones the Tiltfile gives a local kind
// cluster, and the object-URL secret older versions fell back to. Fine on a laptop; production refuses
// them at start-up (config.ts), since whoever reads the repository could sign links or act as a service.
// A test keeps this list in step with the Tiltfile.
export const PUBLISHED_SECRETS: ReadonlySet<string> = new Set([
  'omni-embedded-development-signing-secret',
  'omni-dev-object-url-secret',
  'omni-dev-services-client-secret',
  'omni-dev-password',
  'omni-dev-replica-set-key',
  'whsec_omni-dev-not-set',
]);

/** The variables that carry a secret the services use (for MONGODB_URI, the password in it). */
export const SECRET_VARIABLES = [
  'OBJECT_URL_SECRET',
  'MONGODB_URI',
  'KEYCLOAK_CLIENT_SECRET',
  'S3_SECRET_KEY',
  'OMNI_ADMIN_PASSWORD',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_CONNECT_WEBHOOK_SECRET',
] as const;
