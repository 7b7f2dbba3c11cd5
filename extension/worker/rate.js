// A token bucket per key (a web caller's origin): a burst of `burst`
// requests, then `rate` a second. Memory only: a worker restart refills it.

import { AxError } from '../../protocol/errors.js';

export const RATE = { rate: 50, burst: 200 };

export class RateLimiter {
  /** @param {{rate?: number, burst?: number, now?: () => number}} [o] */
  constructor(o = {}) {
    this.rate = o.rate ?? RATE.rate;
    this.burst = o.burst ?? RATE.burst;
    this.now = o.now ?? Date.now;
    /** @type {Map<string, {tokens: number, at: number}>} */
    this.buckets = new Map();
  }

  /** Spends one request of `key`'s budget, or throws `rate_limited`. */
  take(key) {
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.rate);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) throw new AxError('rate_limited', `more than ${this.rate} requests a second from ${key}: wait a second and retry`);
    b.tokens -= 1;
    // Full buckets say nothing: forget them, so many origins cannot grow the map.
    if (this.buckets.size > 1000) for (const [k, v] of this.buckets) if (v.tokens >= this.burst - 1) this.buckets.delete(k);
  }
}
