import { useEffect, useRef } from 'react';
import { cn } from '../lib/cn';
import { usePrefersReducedMotion } from '../lib/use-reduced-motion';

export interface ParticleFieldProps {
  /** How many dots drift across the canvas. */
  particleCount: number;
  /** Two dots closer than this (CSS pixels) are joined by a line that fades with distance. */
  linkDistance: number;
  className?: string;
}

interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
}

/** Speed in CSS pixels per second: slow enough to read text over, fast enough to look alive. */
const SPEED = 24;

/**
 * A decorative canvas of drifting, linked dots. Colour comes from the element's CSS `color`, so a
 * `text-*` class themes it. It draws one still frame when the visitor prefers reduced motion, and
 * stops animating while the tab is hidden or the canvas is scrolled out of view (no battery spent on
 * frames nobody sees). `data-state` says which (running, paused or static) for tests and debugging.
 * It carries no content: wrap it in an aria-hidden element.
 */
export function ParticleField({ particleCount, linkDistance, className }: ParticleFieldProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const reducedMotion = usePrefersReducedMotion();

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;

    let width = 0;
    let height = 0;
    let particles: Particle[] = [];
    let frame = 0;
    let last = 0;
    let inView = true;

    const seed = () => {
      particles = Array.from({ length: particleCount }, () => {
        const angle = Math.random() * Math.PI * 2;
        const speed = SPEED * (0.4 + Math.random() * 0.6);
        return {
          x: Math.random() * width,
          y: Math.random() * height,
          vx: Math.cos(angle) * speed,
          vy: Math.sin(angle) * speed,
        };
      });
    };

    const draw = () => {
      const color = getComputedStyle(canvas).color;
      context.clearRect(0, 0, width, height);
      context.fillStyle = color;
      context.strokeStyle = color;
      for (let i = 0; i < particles.length; i++) {
        const a = particles[i] as Particle;
        for (let j = i + 1; j < particles.length; j++) {
          const b = particles[j] as Particle;
          const distance = Math.hypot(a.x - b.x, a.y - b.y);
          if (distance < linkDistance) {
            context.globalAlpha = 0.35 * (1 - distance / linkDistance);
            context.beginPath();
            context.moveTo(a.x, a.y);
            context.lineTo(b.x, b.y);
            context.stroke();
          }
        }
      }
      context.globalAlpha = 0.7;
      for (const p of particles) {
        context.beginPath();
        context.arc(p.x, p.y, 2, 0, Math.PI * 2);
        context.fill();
      }
      context.globalAlpha = 1;
    };

    const step = (now: number) => {
      // Clamp the time step: after a long pause dots should not jump across the canvas.
      const dt = last ? Math.min((now - last) / 1000, 0.05) : 0;
      last = now;
      for (const p of particles) {
        p.x += p.vx * dt;
        p.y += p.vy * dt;
        if (p.x < 0 || p.x > width) p.vx = -p.vx;
        if (p.y < 0 || p.y > height) p.vy = -p.vy;
      }
      draw();
      frame = requestAnimationFrame(step);
    };

    const shouldRun = () => !reducedMotion && inView && document.visibilityState === 'visible';
    const sync = () => {
      if (shouldRun() && !frame) {
        last = 0;
        frame = requestAnimationFrame(step);
      } else if (!shouldRun() && frame) {
        cancelAnimationFrame(frame);
        frame = 0;
      }
      canvas.dataset.state = reducedMotion ? 'static' : frame ? 'running' : 'paused';
    };

    const resize = () => {
      const rect = canvas.getBoundingClientRect();
      const ratio = window.devicePixelRatio || 1;
      const resized = Math.round(rect.width) !== Math.round(width);
      width = rect.width;
      height = rect.height;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      if (resized || particles.length === 0) seed();
      draw();
    };

    resize();
    const resizeObserver = new ResizeObserver(resize);
    resizeObserver.observe(canvas);
    const intersectionObserver = new IntersectionObserver(([entry]) => {
      inView = entry?.isIntersecting ?? true;
      sync();
    });
    intersectionObserver.observe(canvas);
    document.addEventListener('visibilitychange', sync);
    sync();

    return () => {
      cancelAnimationFrame(frame);
      frame = 0;
      resizeObserver.disconnect();
      intersectionObserver.disconnect();
      document.removeEventListener('visibilitychange', sync);
    };
  }, [particleCount, linkDistance, reducedMotion]);

  return (
    <canvas
      ref={canvasRef}
      data-testid="particle-field"
      data-particles={particleCount}
      className={cn('pointer-events-none block h-full w-full', className)}
    />
  );
}

export default ParticleField;
