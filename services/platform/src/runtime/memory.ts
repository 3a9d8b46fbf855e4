// Giving memory the process freed back to the system. Node's buffers and native libraries (SQLite) allocate
// with the C library's malloc, which keeps freed memory for reuse: after a burst of large short-lived
// buffers (a statement file received at 180 MB, read again in 256 KB pieces) the process stays that much
// larger, although nothing uses it. glibc's malloc_trim(0) returns the free pages of every thread's
// arena. Reached through koffi (FFI, prebuilt per platform, no compiler); where there is no glibc (macOS,
// musl) or koffi cannot load, this does nothing.
type Trim = (pad: number) => number;

let trim: Trim | null | undefined;

function load(): Trim | null {
  if (process.platform !== 'linux') return null;
  try {
    // Loaded on first use, so a process that never trims never loads the FFI library.
    const koffi = require('koffi') as typeof import('koffi');
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as Trim;
  } catch {
    return null;
  }
}

/**
 * Returns the memory malloc holds free to the system (a few milliseconds for a few hundred MB). For work
 * that frees a lot at known points: after each chunk of a large import, not per request.
 */
export function releaseFreedMemory(): boolean {
  if (trim === undefined) trim = load();
  if (!trim) return false;
  trim(0);
  return true;
}
