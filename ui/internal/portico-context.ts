/** The provider's context (kernel and UI attachment), in a module of its own so that the dialog's chunk can render under it too (../modal/warm-render.tsx). */
import { createContext } from 'react'
import type { Portico } from 'portico'
import type { UiAttachment } from './attach'

export interface PorticoContextValue {
  kernel: Portico
  ui: UiAttachment
}

export const PorticoContext = createContext<PorticoContextValue | null>(null)
