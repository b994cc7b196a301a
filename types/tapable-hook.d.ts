// tapable ships types for its index only; this is its base class (lib/Hook.js).
declare module 'tapable/lib/Hook.js' {
  const Hook: new (args?: readonly string[], name?: string) => object
  export default Hook
}
