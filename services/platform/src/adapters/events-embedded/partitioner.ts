/**
 * Stable key → partition: FNV-1a (32 bit) over the key's UTF-8 bytes. Same key, same partition, on
 * every run and every machine, so one aggregate's events stay in order. (Kafka uses murmur2; the
 * embedded log only needs stability within itself.)
 */
export function partitionForKey(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}
