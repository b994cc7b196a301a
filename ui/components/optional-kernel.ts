import { createContext, useContext } from 'react'
import type { Portico } from 'portico'

/** The kernel when rendered inside a provider, else null (components work standalone). */
export const KernelContext = createContext<Portico | null>(null)
export const useOptionalKernel = () => useContext(KernelContext)
