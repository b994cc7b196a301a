/**
 * SIWE's errors. The wallet errors (codes, mapping, views) are the wallet base's
 * (`portico/kits/wallet`, declared once for every wallet plugin), and so are the EIP-1193
 * provider errors the product itself raises (4200, 4900; spec part 1 section 8).
 */
export { providerError } from 'portico/kits/wallet'
