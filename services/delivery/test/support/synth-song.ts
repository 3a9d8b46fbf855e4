// Small synthetic songs for the fingerprint tests and bench, generated in the test (no fixtures, nothing read
// from outside the repository): a seeded melody of harmonic tones, a bass line and pitch-swept kick chirps at
// 120 bpm, rendered analytically to 16-bit mono WAV. `speed` renders the same song played faster (pitch and
// tempo together, as a sped-up re-upload), sample-exact at the same output rate — no resampling involved.
import { writeFileSync } from 'node:fs';

export interface SongOptions {
  seed: number;
  seconds: number;
  sampleRate?: number;
  /** 1.04: the song played 4 % faster (and 4 % higher). */
  speed?: number;
  /** Seconds of the song cut from its start. */
  cutStart?: number;
  /** White noise added, as a ratio of the signal's peak (0.05 ≈ −26 dB). */
  noise?: number;
  /** Gain applied to the whole (1: peak at −1 dBFS). */
  gain?: number;
}

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

interface Note {
  start: number;
  length: number;
  freq: number;
  amp: number;
  kind: 'tone' | 'kick';
}

function compose(seed: number, seconds: number): Note[] {
  // One generator per layer, so a shorter render is a prefix of a longer one.
  let rand = prng(seed);
  const beat = 0.5;
  const scale = [0, 2, 4, 7, 9, 12, 14, 16];
  const root = 196 * 2 ** (Math.floor(rand() * 7) / 12);
  const notes: Note[] = [];
  for (let t = 0; t < seconds + 1; t += beat / 2) {
    if (rand() < 0.8) {
      const step = scale[Math.floor(rand() * scale.length)] ?? 0;
      notes.push({ start: t, length: beat / 2, freq: root * 2 ** (step / 12), amp: 0.5, kind: 'tone' });
    }
  }
  rand = prng(seed * 3 + 1);
  for (let t = 0; t < seconds + 1; t += beat * 2) {
    const step = [0, 5, 7, 3][Math.floor(rand() * 4)] ?? 0;
    notes.push({ start: t, length: beat * 2, freq: (root / 4) * 2 ** (step / 12), amp: 0.4, kind: 'tone' });
  }
  rand = prng(seed * 7 + 2);
  for (let t = 0; t < seconds + 1; t += beat) {
    if (rand() < 0.7) notes.push({ start: t, length: 0.2, freq: 120, amp: 0.6, kind: 'kick' });
  }
  return notes;
}

/** The song as samples in [-1, 1]. */
export function renderSong(options: SongOptions): Float32Array {
  const rate = options.sampleRate ?? 44100;
  const speed = options.speed ?? 1;
  const cut = options.cutStart ?? 0;
  const total = Math.round(((options.seconds - cut) / speed) * rate);
  const out = new Float32Array(total);
  for (const note of compose(options.seed, options.seconds)) {
    // Output time u plays song time cut + u·speed.
    const from = Math.max(0, Math.ceil(((note.start - cut) / speed) * rate));
    const to = Math.min(total, Math.floor(((note.start + note.length - cut) / speed) * rate));
    if (from >= to) continue;
    const local0 = (from / rate) * speed + cut - note.start; // seconds into the note (song time) at `from`
    const dt = speed / rate;
    // The envelope exp(−4·local/length) by a recurrence, not an exp per sample.
    let env = Math.exp((-4 * local0) / note.length);
    const decay = Math.exp((-4 * dt) / note.length);
    if (note.kind === 'kick') {
      // a chirp from 3× down to the note's frequency (short: Math.sin per sample is fine)
      for (let n = from, local = local0; n < to; n++, local += dt, env *= decay) {
        const phase = 2 * Math.PI * note.freq * (local + (2 / 30) * (1 - Math.exp(-30 * local)));
        out[n] = (out[n] ?? 0) + note.amp * env * Math.min(1, local * 200) * Math.sin(phase);
      }
      continue;
    }
    // A tone and its 2nd and 3rd harmonics from one rotating phasor (sin 2w, sin 3w from sin w, cos w).
    const step = 2 * Math.PI * note.freq * dt;
    const cs = Math.cos(step);
    const sn = Math.sin(step);
    let sw = Math.sin(2 * Math.PI * note.freq * local0);
    let cw = Math.cos(2 * Math.PI * note.freq * local0);
    for (let n = from, local = local0; n < to; n++, local += dt, env *= decay) {
      const v = sw + sw * cw + 0.25 * sw * (3 - 4 * sw * sw);
      out[n] = (out[n] ?? 0) + note.amp * env * Math.min(1, local * 200) * v;
      const s2 = sw * cs + cw * sn;
      cw = cw * cs - sw * sn;
      sw = s2;
    }
  }
  let peak = 0;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  const gain = ((options.gain ?? 1) * 0.89) / (peak || 1);
  const noise = prng(options.seed ^ 0x5bd1e995);
  for (let n = 0; n < total; n++) {
    let v = (out[n] ?? 0) * gain;
    if (options.noise) v += (noise() * 2 - 1) * options.noise;
    out[n] = Math.max(-1, Math.min(1, v));
  }
  return out;
}

/** 16-bit PCM mono WAV bytes. */
export function wavBytes(samples: Float32Array, sampleRate = 44100): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(Math.round((samples[i] ?? 0) * 32767), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export function writeSong(path: string, options: SongOptions): string {
  writeFileSync(path, wavBytes(renderSong(options), options.sampleRate ?? 44100));
  return path;
}

/** Two songs one after the other (an excerpt of one inside another). */
export function writeConcat(path: string, parts: Float32Array[], sampleRate = 44100): string {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const all = new Float32Array(total);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  writeFileSync(path, wavBytes(all, sampleRate));
  return path;
}
