// The development entry of the admin JSX runtime (what a transform in development mode imports).
export { Fragment, jsx as jsxDEV, type JSX } from './jsx-runtime.js'
