/**
 * portico/ui/core — deprecated alias of `portico/ui` (0.3.0). Until 0.2.0 `portico/ui` was the
 * plugin authors' entry and `portico/ui/core` the host's small one; now `portico/ui` is the
 * host's entry and the screen building blocks are in `portico/ui/screens`. This alias goes in
 * the next minor release.
 */
export * from './index'
