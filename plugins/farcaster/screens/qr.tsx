/**
 * The connect URI as a QR code: encoded by `uqr` (loaded lazily, with this file) and drawn
 * as one SVG path — no inline style, so it renders under a strict CSP.
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

export default function QrCode({ value, label }: { value: string; label: string }) {
  const { size, d } = qrPath(value)
  return (
    <svg className="portico-qr-code" width="100%" height="100%" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges" data-size={size}>
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  )
}
