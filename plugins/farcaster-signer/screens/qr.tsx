/** The approval link as a QR code (the shared `portico/ui/qr`, loaded lazily with this file). */
export { QrCode as default } from 'portico/ui/qr'
