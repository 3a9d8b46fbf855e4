// The store profile is the store registry port's type (providers/stores/profile.ts); domain code reads it
// from here.
export * from '../../providers/stores/profile';
