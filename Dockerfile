# Parley serving the assistant of this folder (the bundled Parley Bank, or yours in its place) on port 5005:
# channels, the HTTP API when enabled, A2A. See docs/deployment.md#as-a-container.
#
#   docker build -t parley-bank .
#   docker run --rm -p 5005:5005 parley-bank
#
# Three stages: `build` compiles dist/ (with the dev dependencies), `deps` installs the runtime
# dependencies alone, and the final image holds those, dist/ and the assistant, runs as the unprivileged
# `node` user and carries a model trained at build time, so that no replica trains at start.
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 builds from source where no prebuilt binary fits the platform
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY bin ./bin
# the assistant's files warm the schema validators' code caches during the build
COPY config.yml domain.yml endpoints.yml credentials.yml ./
COPY flows ./flows
COPY data ./data
# installs every dependency, then `prepare` runs `npm run build`
RUN npm ci

FROM ${NODE_IMAGE} AS deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# runtime dependencies only (no `prepare`: dist/ comes from the build stage; tsx, which loads the
# assistant's TypeScript actions, is one of them), then the native SQLite driver
RUN npm ci --omit=dev --ignore-scripts \
  && npm rebuild better-sqlite3

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
# the bundled actions import 'parley', which package.json's exports resolve to dist/
COPY config.yml domain.yml endpoints.yml credentials.yml ./
COPY flows ./flows
COPY data ./data
COPY actions ./actions
RUN mkdir -p models .parley && chown node:node models .parley
USER node
# the model ships with the image: `parley run` finds it in models/ and trains nothing
RUN node bin/parley.js train --quiet
EXPOSE 5005
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:5005/').then((answer) => process.exit(answer.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/parley.js", "run", "--port", "5005", "--interface", "0.0.0.0"]
