import { handle } from 'hono/aws-lambda'
import { createAdminApp } from '../lib/admin-app.js'
import { lambdaServices } from './runtime.js'

export const handler = handle(createAdminApp(await lambdaServices()))
