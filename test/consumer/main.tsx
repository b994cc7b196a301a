/** The Vite app of test/consumer/consumer.test.ts: the README's e-mail-only host, bundled from the packed tarball. */
import { createRoot } from 'react-dom/client'
import { App } from './host'

createRoot(document.getElementById('root')!).render(<App />)
