import { handle } from 'hono/aws-lambda'
import { createLocalesApp } from '../lib/admin-app.js'
import { lambdaServices } from './runtime.js'

export const handler = handle(createLocalesApp(await lambdaServices()))
