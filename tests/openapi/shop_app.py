"""A small real FastAPI application: a CRUD resource with path, query and body parameters, an
enum, a nested model and an API key. ``mcpgen import openapi`` reads its ``/openapi.json``."""

from __future__ import annotations

from enum import Enum

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, Field

app = FastAPI(title="Shop API", version="2.1.0", description="Items of a small shop.")
ITEMS: dict[int, dict[str, object]] = {}
SEEN: list[dict[str, object]] = []
"""Every request as it arrived: method, path, query, the API key header, the body."""


@app.middleware("http")
async def record(request: Request, call_next):  # type: ignore[no-untyped-def]
    body = await request.body()
    SEEN.append(
        {
            "method": request.method,
            "path": request.url.path,
            "query": str(request.url.query),
            "key": request.headers.get("x-api-key"),
            "body": body.decode() if body else None,
        }
    )
    return await call_next(request)


class Color(str, Enum):
    red = "red"
    green = "green"


class Dimensions(BaseModel):
    width: float = Field(gt=0)
    height: float = Field(gt=0)


class ItemIn(BaseModel):
    name: str = Field(min_length=1, description="Display name.")
    color: Color = Color.red
    dimensions: Dimensions | None = None
    tags: list[str] = []


class Item(ItemIn):
    id: int


API_KEY = APIKeyHeader(name="X-API-Key")


def api_key(x_api_key: str = Depends(API_KEY)) -> str:
    if x_api_key != "secret-key":
        raise HTTPException(status_code=401, detail="bad key")
    return x_api_key


@app.get("/items", tags=["items"], operation_id="list_items", summary="List items")
def list_items(limit: int = Query(10, ge=1, le=100), color: Color | None = None) -> list[Item]:
    return [Item(id=i, **v) for i, v in ITEMS.items()][:limit]  # type: ignore[arg-type]


@app.post("/items", tags=["items"], operation_id="create_item", status_code=201)
def create_item(item: ItemIn, key: str = Depends(api_key)) -> Item:
    new_id = len(ITEMS) + 1
    ITEMS[new_id] = item.model_dump()
    return Item(id=new_id, **item.model_dump())


@app.get("/items/{item_id}", tags=["items"], operation_id="get_item")
def get_item(item_id: int) -> Item:
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="no such item")
    return Item(id=item_id, **ITEMS[item_id])  # type: ignore[arg-type]


@app.put("/items/{item_id}", tags=["items"], operation_id="replace_item")
def replace_item(item_id: int, item: ItemIn, key: str = Depends(api_key)) -> Item:
    ITEMS[item_id] = item.model_dump()
    return Item(id=item_id, **item.model_dump())


@app.delete("/items/{item_id}", tags=["admin"], operation_id="delete_item", deprecated=True)
def delete_item(item_id: int, key: str = Depends(api_key)) -> dict[str, bool]:
    return {"deleted": ITEMS.pop(item_id, None) is not None}


@app.get("/count", tags=["items"])
def count_items() -> int:
    return len(ITEMS)
