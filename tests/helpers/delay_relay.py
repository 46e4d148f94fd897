"""A TCP relay that holds every chunk it forwards for a while, each way: a link's delay where the kernel
has no ``netem`` (tests/lan/test_lan_netns.py runs it inside the guest's network namespace).

    python delay_relay.py LISTEN_HOST TARGET_HOST TARGET_PORT SECONDS

It listens on a free port of LISTEN_HOST, prints that port on a line of its own, and relays every
connection to TARGET_HOST:TARGET_PORT, each chunk sent SECONDS after it arrived, in order; an end of
stream goes through the same delay.  It runs until killed.
"""
import asyncio
import sys


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    loop = asyncio.get_running_loop()
    queue: "asyncio.Queue" = asyncio.Queue()

    async def send() -> None:
        while True:
            when, data = await queue.get()
            wait = when + delay - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                writer.close()
                return
            writer.write(data)
            await writer.drain()

    sender = loop.create_task(send())
    try:
        while True:
            data = await reader.read(65536)
            queue.put_nowait((loop.time(), data))
            if not data:
                break
        await sender
    except (OSError, asyncio.CancelledError):
        sender.cancel()
        writer.close()


async def main(listen: str, host: str, port: int, delay: float) -> None:
    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(host, port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(pipe(reader, up_writer, delay), pipe(up_reader, writer, delay))

    server = await asyncio.start_server(relay, listen, 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])))
