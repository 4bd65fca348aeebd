# syntax=docker/dockerfile:1
#
# The mcpverdict image, and the GitHub Action's (action.yml builds the last
# stage, runtime). Every base image is pinned by digest; update a digest and
# its tag together.
#
#   docker build -t mcpverdict .                 # runtime: mcpverdict, Node.js, Python
#   docker build --target judge -t mcpverdict:judge .   # judge only: validate recorded traces

# build: a static binary, and the MCP JSON Schemas fetched at the pinned
# specification commit, each refused unless its SHA-256 is the pinned one.
FROM golang:1.26-bookworm@sha256:6ef6e30f0ea5c384f6d111cf856e024e3086bbdcb1779da3f3b3fbba0aea53d2 AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOTOOLCHAIN=local
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go build -trimpath -ldflags="-s -w" -o /out/mcpverdict ./cmd/mcpverdict \
 && /out/mcpverdict schema fetch --dir /out/schema

# node: only its runtime is taken, into the runtime stage.
FROM node:22-bookworm-slim@sha256:43ac6c60b8f89723f746e8a92ce91abd5017e627ce1ddfe4238355d3a30b772c AS node

# judge: the slim image for judging recorded traces; no shell, no server
# runtime, the distroless non-root user.
FROM gcr.io/distroless/static-debian12:nonroot@sha256:afa5c872c891853ca7fcf1f12c3edb23f7eeef36189728842dd51042ff57f7ab AS judge
COPY --from=build /out/mcpverdict /usr/local/bin/mcpverdict
COPY --from=build /out/schema /usr/share/mcpverdict/schema
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/mcpverdict"]
CMD ["--help"]

# runtime: what the action runs. The servers people write must run inside
# it, so it carries Python (the base) and Node.js with npm and npx (from the
# node stage, the same Debian release).
FROM python:3.13-slim-bookworm@sha256:01f42367a0a94ad4bc17111776fd66e3500c1d87c15bbd6055b7371d39c124fb AS runtime
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version && python3 --version
COPY --from=build /out/mcpverdict /usr/local/bin/mcpverdict
COPY --from=build /out/schema /usr/share/mcpverdict/schema
# uid 1001 is the runner user of GitHub-hosted runners: the workspace and the
# file commands mounted into the container belong to it, so this non-root
# user can write the reports and the outputs.
RUN groupadd --gid 1001 runner \
 && useradd --uid 1001 --gid 1001 --home-dir /home/runner --create-home --shell /usr/sbin/nologin runner
USER 1001:1001
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false PYTHONDONTWRITEBYTECODE=1
ENTRYPOINT ["/usr/local/bin/mcpverdict"]
CMD ["action"]
