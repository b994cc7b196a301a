// A bare local chain for the ERC-1271 / ERC-6492 SIWE tests (npx hardhat node --config ...).
module.exports = { networks: { hardhat: { chainId: 31337 } } }
