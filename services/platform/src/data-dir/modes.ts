// Everything under the data folder is the owner's alone: it holds the token-signing private key, password
// hashes, sign-in links in the dev mailbox, the URL-signing secret and users' unreleased masters. Every
// writer creates files and folders with these modes (the umask may take bits away, never add them).
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;
/** Group and other permission bits: none may be set under the data folder. */
export const SHARED_BITS = 0o077;
