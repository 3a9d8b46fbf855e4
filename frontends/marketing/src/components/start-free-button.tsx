import { Button } from '@omni/ui';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { CONFETTI_MS, CONFETTI_PARTICLES, SIGNUP_REDIRECT_MS } from '../content/facts';

/**
 * 'Start Free': a confetti burst from the button, then /signup after 300 ms (spec §2, §9). The
 * confetti code loads on demand; the redirect does not wait for it, and with reduced motion there is
 * no burst at all.
 */
export function StartFreeButton() {
  const navigate = useNavigate();
  const busy = useRef(false);

  const onClick = (event: React.MouseEvent<HTMLButtonElement>) => {
    if (busy.current) return;
    busy.current = true;
    const rect = event.currentTarget.getBoundingClientRect();
    const origin = { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
    import('@omni/ui/confetti')
      .then(({ burstConfetti }) =>
        burstConfetti({ particleCount: CONFETTI_PARTICLES, durationMs: CONFETTI_MS, origin }),
      )
      .catch(() => {
        // Decoration only: a failed chunk load must not stop the visitor from signing up.
      });
    setTimeout(() => navigate('/signup'), SIGNUP_REDIRECT_MS);
  };

  return (
    <Button size="lg" variant="secondary" className="text-base" onClick={onClick}>
      Start Free
    </Button>
  );
}
