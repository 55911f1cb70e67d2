"""List the weather server's tools, resources and prompts, call get_weather and read a
forecast resource, through the official MCP client.

    mcpgen server examples/weather/tools.yaml --out examples/weather --package weather_server
    python examples/weather/call.py [CITY]

Starts ``python -m weather_server`` over stdio (from this directory) with ``mcp.Client``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

HERE = Path(__file__).resolve().parent


async def main(city: str) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "weather_server"], env=env, cwd=str(HERE)
    )
    async with Client(params) as client:
        tools = await client.list_tools()
        print("protocol:", client.protocol_version)
        print("tools:", ", ".join(t.name for t in tools.tools))
        result = await client.call_tool("get_weather", {"city": city})
        print("get_weather:", json.dumps(result.structured_content, sort_keys=True))
        print("text:", result.content[0].text if result.content else "")
        resources = await client.list_resources()
        templates = await client.list_resource_templates()
        prompts = await client.list_prompts()
        print(
            "resources:",
            ", ".join(
                [r.uri for r in resources.resources]
                + [t.uri_template for t in templates.resource_templates]
            ),
            "| prompts:",
            ", ".join(p.name for p in prompts.prompts),
        )
        forecast = await client.read_resource(f"weather://forecast/{city}")
        days = json.loads(forecast.contents[0].text)["days"]  # type: ignore[union-attr]
        print(
            f"weather://forecast/{city}:", ", ".join(f"{d['date']} {d['condition']}" for d in days)
        )


if __name__ == "__main__":
    anyio.run(main, sys.argv[1] if len(sys.argv) > 1 else "Paris")
