import { prefersReducedMotion } from '../lib/use-reduced-motion';

export interface ConfettiOptions {
  /** Pieces in the burst. */
  particleCount?: number;
  /** How long the burst lasts before its canvas is removed, in milliseconds. */
  durationMs?: number;
  /** Where the burst starts, in viewport pixels; defaults to the centre of the screen. */
  origin?: { x: number; y: number };
}

const COLORS = ['#7c3aed', '#ec4899', '#f59e0b', '#10b981', '#3b82f6'];
const GRAVITY = 1400; // px/s²

/**
 * A one-off confetti burst on a full-screen canvas laid over the page (it ignores the pointer and
 * screen readers), removed when it ends. It lives on document.body, so it outlives a navigation
 * that starts during the burst. Resolves at once, drawing nothing, when the visitor prefers reduced
 * motion.
 */
export function burstConfetti({ particleCount = 40, durationMs = 1000, origin }: ConfettiOptions = {}) {
  if (prefersReducedMotion() || typeof document === 'undefined') return Promise.resolve();
  const canvas = document.createElement('canvas');
  canvas.setAttribute('aria-hidden', 'true');
  canvas.dataset.testid = 'confetti';
  Object.assign(canvas.style, {
    position: 'fixed',
    inset: '0',
    width: '100vw',
    height: '100vh',
    pointerEvents: 'none',
    zIndex: '100',
  });
  const context = canvas.getContext('2d');
  if (!context) return Promise.resolve();
  const ratio = window.devicePixelRatio || 1;
  canvas.width = window.innerWidth * ratio;
  canvas.height = window.innerHeight * ratio;
  context.scale(ratio, ratio);
  document.body.append(canvas);

  const start = origin ?? { x: window.innerWidth / 2, y: window.innerHeight / 2 };
  const pieces = Array.from({ length: particleCount }, (_, i) => {
    // Mostly upwards, fanned out, so the pieces rise and then fall.
    const angle = -Math.PI / 2 + (Math.random() - 0.5) * Math.PI * 0.9;
    const speed = 450 + Math.random() * 450;
    return {
      x: start.x,
      y: start.y,
      vx: Math.cos(angle) * speed,
      vy: Math.sin(angle) * speed,
      size: 6 + Math.random() * 6,
      spin: (Math.random() - 0.5) * 12,
      rotation: Math.random() * Math.PI,
      color: COLORS[i % COLORS.length] as string,
    };
  });

  return new Promise<void>((resolve) => {
    let previous = performance.now();
    const began = previous;
    let frame = 0;
    const finish = () => {
      cancelAnimationFrame(frame);
      canvas.remove();
      resolve();
    };
    // Also ends by timer: requestAnimationFrame does not run in a hidden tab.
    const timer = setTimeout(finish, durationMs + 50);
    const step = (now: number) => {
      const dt = Math.min((now - previous) / 1000, 0.05);
      previous = now;
      const progress = (now - began) / durationMs;
      if (progress >= 1) {
        clearTimeout(timer);
        finish();
        return;
      }
      context.clearRect(0, 0, window.innerWidth, window.innerHeight);
      context.globalAlpha = 1 - progress * progress;
      for (const p of pieces) {
        p.vy += GRAVITY * dt;
        p.x += p.vx * dt;
        p.y += p.vy * dt;
        p.rotation += p.spin * dt;
        context.save();
        context.translate(p.x, p.y);
        context.rotate(p.rotation);
        context.fillStyle = p.color;
        context.fillRect(-p.size / 2, -p.size / 4, p.size, p.size / 2);
        context.restore();
      }
      frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
  });
}
