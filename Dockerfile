# The frame-spine-lookup action. GitHub builds this with no build arguments, so the default
# base must resolve; BASE_IMAGE lets a local build use another Debian-based Python image.
ARG BASE_IMAGE=python:3.12-slim
FROM ${BASE_IMAGE}

# PYTHONSAFEPATH (and -P below): the runner starts the container in the checked-out
# workspace; never import modules from there.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONSAFEPATH=1 \
    PYTHONPATH=/opt/frame-spine \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Locked dependencies, every file checked against its hash; wheels only, so no compiler is
# needed and none is left behind.
COPY requirements.lock /tmp/requirements.lock
RUN python3 -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir --require-hashes --only-binary=:all: \
        -r /tmp/requirements.lock \
    && /opt/venv/bin/pip uninstall --yes --quiet pip setuptools \
    && rm -f /tmp/requirements.lock

COPY src/frame_spine /opt/frame-spine/frame_spine
RUN /opt/venv/bin/python -m compileall -q /opt/frame-spine

# No USER: the runner mounts the workspace and file-command files owned by its own user.
ENTRYPOINT ["/opt/venv/bin/python", "-P", "-m", "frame_spine.action"]
