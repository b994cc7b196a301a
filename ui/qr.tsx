/**
 * portico/ui/qr — a QR code drawn as one SVG path (encoded by `uqr`), no inline style, so it
 * renders under a strict CSP. On its own subpath so only screens that show a code pay for the
 * encoder; load it lazily (`lazy(() => import('portico/ui/qr'))`).
 *
 * `size` is the rendered width and height in CSS pixels (the spec's QR sizes: key export 275,
 * funding 200); without it the code fills its container.
 */
import { encode } from 'uqr'

export function qrPath(text: string): { size: number; d: string } {
  const { data, size } = encode(text, { ecc: 'M', border: 2 })
  let d = ''
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) if (data[y][x]) d += `M${x} ${y}h1v1h-1z`
  }
  return { size, d }
}

export interface QrCodeProps {
  value: string
  /** The accessible name ('Scan with your wallet'). */
  label: string
  /** Width and height in CSS pixels. */
  size?: number
}

export function QrCode({ value, label, size }: QrCodeProps) {
  const { size: modules, d } = qrPath(value)
  const px = size ?? '100%'
  return (
    <svg className="portico-qr-code" width={px} height={px} viewBox={`0 0 ${modules} ${modules}`} role="img" aria-label={label} shapeRendering="crispEdges" data-size={modules} data-value-length={value.length}>
      <rect width={modules} height={modules} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  )
}

export default QrCode
