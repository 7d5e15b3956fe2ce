//! Exponential backoff with "equal jitter".
//!
//! The ceiling for retry `n` (0-based) is `base * 2^n`, capped at `max`. The
//! actual delay is drawn uniformly from `[ceiling / 2, ceiling]`, so agents
//! that lost the collector at the same moment don't come back in lockstep,
//! while every retry still waits at least half of the ceiling.

use std::time::Duration;

use rand::Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    base: Duration,
    max: Duration,
}

impl Backoff {
    pub fn new(base: Duration, max: Duration) -> Self {
        Self {
            base,
            max: max.max(base),
        }
    }

    pub fn max(&self) -> Duration {
        self.max
    }

    /// Upper bound of the delay before retry number `retry` (0-based).
    pub fn ceiling(&self, retry: u32) -> Duration {
        let factor = 1u32.checked_shl(retry.min(31)).unwrap_or(u32::MAX);
        self.base.saturating_mul(factor).min(self.max)
    }

    pub fn delay(&self, retry: u32) -> Duration {
        self.delay_with(retry, &mut rand::thread_rng())
    }

    fn delay_with<R: Rng + ?Sized>(&self, retry: u32, rng: &mut R) -> Duration {
        let ceiling = self.ceiling(retry);
        let half = ceiling / 2;
        let jitter_ms = rng.gen_range(0..=(ceiling - half).as_millis() as u64);
        half + Duration::from_millis(jitter_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn ceiling_doubles_until_capped() {
        let b = Backoff::new(ms(250), ms(45_000));
        let ceilings: Vec<_> = (0..9).map(|n| b.ceiling(n).as_millis()).collect();
        assert_eq!(ceilings, [250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 45000]);
        assert_eq!(b.ceiling(200), ms(45_000));
    }

    #[test]
    fn delay_stays_between_half_and_full_ceiling() {
        let b = Backoff::new(ms(100), ms(10_000));
        let mut rng = StdRng::seed_from_u64(7);
        for retry in 0..12 {
            let ceiling = b.ceiling(retry);
            for _ in 0..200 {
                let d = b.delay_with(retry, &mut rng);
                assert!(d >= ceiling / 2 && d <= ceiling, "retry {retry}: {d:?} vs {ceiling:?}");
            }
        }
    }

    #[test]
    fn max_below_base_is_raised_to_base() {
        let b = Backoff::new(ms(500), ms(100));
        assert_eq!(b.max(), ms(500));
        assert_eq!(b.ceiling(3), ms(500));
    }
}
