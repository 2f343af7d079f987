import { createContentApp } from '../lib/content-app.js'
import { handle } from './api-gateway.js'
import { contentTypeOf, lambdaServices } from './runtime.js'

const services = await lambdaServices()
export const handler = handle(createContentApp(contentTypeOf(services), services))
