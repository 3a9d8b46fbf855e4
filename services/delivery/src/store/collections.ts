// Names of the collections the jobs and their per-release counts live in, in a file of their own so the
// jobs repository and the counts can both name them without importing each other.
export const JOBS = 'delivery_jobs';
export const RELEASE_COUNTS = 'delivery_release_counts';
