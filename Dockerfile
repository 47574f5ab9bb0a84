# Runnable image of the headroom command line; in a cluster it runs `headroom run` (see deploy/).
#   docker build -t headroom:0.1.0-SNAPSHOT .
# Build stage: the Maven Wrapper fetches Maven and every library from Maven Central. Every module of the root
# pom's <modules> must be copied (Maven loads the whole reactor even with -pl); DockerContextTest checks this.
FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY .mvn .mvn
COPY mvnw pom.xml ./
COPY api api
COPY core core
COPY sim sim
COPY controller controller
COPY bench bench
COPY cli cli
COPY deploy/crds deploy/crds
RUN ./mvnw -B -q -DskipTests -pl cli -am package

# Runtime stage: a JRE and the shaded jar, as a non-root user.
FROM eclipse-temurin:17-jre
COPY --from=build /src/cli/target/headroom.jar /app/headroom.jar
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/headroom.jar"]
CMD ["run"]
