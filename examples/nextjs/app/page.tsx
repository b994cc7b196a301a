// A server component: rendered on the server (prerendered at `next build`), it renders the
// client component that holds Portico. Nothing of Portico runs here but the provider's server
// render, which touches no `window`.
import { Portico } from './portico'

export default function Page() {
  return (
    <main>
      <h1>Portico on Next.js</h1>
      <Portico />
    </main>
  )
}
