// The store lives in core/store; this path stays for the callers outside the server (test/global-setup.ts, the e2e servers, server/).
export * from './core/store'
