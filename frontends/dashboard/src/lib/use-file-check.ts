import { useEffect, useState } from 'react';
import type { FileCheck } from './file-facts';

/** A chosen file's check: null while none is chosen or its header is being read. */
export function useFileCheck(file: File | null, check: (file: File) => Promise<FileCheck>): FileCheck | null {
  const [result, setResult] = useState<{ file: File; check: FileCheck } | null>(null);
  useEffect(() => {
    if (!file) return;
    let current = true;
    void check(file).then((outcome) => {
      if (current) setResult({ file, check: outcome });
    });
    return () => {
      current = false;
    };
  }, [file, check]);
  // A result for a file no longer chosen says nothing about the one that is.
  return file && result?.file === file ? result.check : null;
}
