# The API as `npm start` runs it, for compose.yaml: Node 22 (the Lambda runtime), the locked
# dependencies, no Java (DynamoDB Local is the compose service named by DYNAMODB_ENDPOINT).
FROM node:22-slim
WORKDIR /app
COPY package.json package-lock.json ./
# Dev dependencies included: tsx runs the TypeScript entry point, as `npm start` does.
RUN npm ci --no-audit --no-fund
# The whole repository but what .dockerignore leaves out: robust to new source folders (e.g. schemas).
COPY . .
# The data directory (secrets.json), owned by the user the server runs as; a new volume takes it.
RUN mkdir /data && chown node:node /data
USER node
ENV NODE_ENV=production HOST=0.0.0.0 PORT=1337 DATA_DIR=/data
EXPOSE 1337
CMD ["node", "node_modules/tsx/dist/cli.mjs", "functions/local.ts"]
