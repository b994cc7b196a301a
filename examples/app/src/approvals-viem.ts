/** The approvals panel's viem side, loaded on first use through one local module (a direct `import('viem')` in the app splits the initial load). */
export { encodeFunctionData, maxUint256, parseAbi } from 'viem'
