# Rookery: release build, then a small runtime image. Migrations run at start.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release -p rookery-server

FROM debian:bookworm-slim
RUN useradd --system --home /data rookery && mkdir -p /data && chown rookery /data
COPY --from=build /src/target/release/rookery /usr/local/bin/rookery
USER rookery
WORKDIR /data
ENV ROOKERY_LISTEN=0.0.0.0:8080 DATABASE_URL=sqlite:///data/rookery.db
EXPOSE 8080
CMD ["rookery", "serve"]
