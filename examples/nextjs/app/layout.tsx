import type { ReactNode } from 'react'
import 'portico/ui/styles.css'

export const metadata = { title: 'Portico on Next.js' }

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  )
}
