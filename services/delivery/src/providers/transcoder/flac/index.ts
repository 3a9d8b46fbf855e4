// WAV (integer PCM, 16 or 24 bit) → FLAC with libFLAC compiled to JavaScript (libflacjs, MIT; libFLAC is
// BSD). The asm.js build: it loads synchronously under plain Node, tsx and jest alike. (The WebAssembly
// build is about 4x faster but Node 20's global fetch makes its loader try to fetch the .wasm by path.)
// The header is read and checked here; the encoding runs in a worker thread of its own
// (encode-worker.mjs), since libFLAC encodes synchronously and would otherwise hold this process's event
// loop — every service's, in the all-in-one mode — for the whole transcode.
import { appPath, startWorker } from '@omni/platform';
import { type AudioFormat, type PcmFacts, TranscodeError, type Transcoder } from '../port';
import { readWavLayout, type WavLayout } from './wav-header';

export function createFlacTranscoder(): Transcoder {
  return {
    supports: (from: AudioFormat, to: AudioFormat) => from === 'wav' && to === 'flac',
    async transcode(input, output, to) {
      if (to !== 'flac') throw new TranscodeError(`this encoder makes FLAC, not ${to}`);
      const layout = await readWavLayout(input);
      if (layout.bitsPerSample !== 16 && layout.bitsPerSample !== 24)
        throw new TranscodeError(`a ${layout.bitsPerSample}-bit WAV cannot be encoded (16 or 24 bit only)`);
      return encodeInWorker(input, output, layout);
    },
  };
}

type Reply = { facts?: PcmFacts; error?: string; transcode?: boolean };

function encodeInWorker(input: string, output: string, layout: WavLayout): Promise<PcmFacts> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(appPath('services/delivery/src/providers/transcoder/flac/encode-worker.mjs'), {
      workerData: { input, output, layout },
    });
    let settled = false;
    worker.once('message', (reply: Reply) => {
      settled = true;
      if (reply.facts) resolve(reply.facts);
      else if (reply.transcode) reject(new TranscodeError(reply.error ?? 'FLAC encoding failed'));
      else reject(new Error(reply.error ?? 'FLAC encoding failed'));
      void worker.terminate();
    });
    worker.once('error', (err) => {
      if (!settled) reject(err);
      settled = true;
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the FLAC encoder stopped (exit ${code})`));
      settled = true;
    });
  });
}
