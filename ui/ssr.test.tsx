// Server rendering: the provider renders with react-dom/server in Node (no window at load).
import { describe, expect, it } from 'vitest'
import { renderToString } from 'react-dom/server'
import { PorticoProvider, usePortico } from 'portico/ui/screens'
import { TEST_APP_ID } from 'portico/testing'

function Status() {
  const { ready, authenticated } = usePortico()
  return <p>{ready ? 'ready' : 'loading'}-{authenticated ? 'in' : 'out'}</p>
}

describe('server rendering', () => {
  it('renders the provider in Node without window', () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    const html = renderToString(
      <PorticoProvider appId={TEST_APP_ID} config={{ apiUrl: 'http://portico.test' }}>
        <Status />
      </PorticoProvider>,
    )
    expect(html).toContain('loading')
    expect(html).toContain('out')
    expect(html).not.toContain('portico-dialog')
  })
})
