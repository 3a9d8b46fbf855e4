import { lazy, Suspense } from 'react';
import { HERO_LINK_DISTANCE, HERO_PARTICLES } from '../content/facts';

// The canvas code is decorative: it arrives after the hero's text has painted.
const ParticleField = lazy(() => import('@omni/ui/particles'));

/** The landing hero's animated backdrop (60 particles, links under 120 px; spec §9). */
export function HeroParticles() {
  return (
    <div className="absolute inset-0 text-primary/40" aria-hidden="true">
      <Suspense fallback={null}>
        <ParticleField particleCount={HERO_PARTICLES} linkDistance={HERO_LINK_DISTANCE} />
      </Suspense>
    </div>
  );
}
