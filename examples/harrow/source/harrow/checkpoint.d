/**
 * Persists how far each tailed file has been read, so a restart neither
 * re-ships old lines nor skips new ones.
 *
 * The store is flushed to disk every `checkpointSaveSeconds` by app.d and once
 * more on shutdown. Lines read after the last save are read again after a
 * crash, so delivery is at-least-once.
 */
module harrow.checkpoint;

import std.file : exists, readText, rename, write, mkdirRecurse;
import std.path : dirName;

import vibe.core.log;
import vibe.data.json;

struct Position
{
	/// Inode of the file when the offset was recorded; a different inode
	/// under the same path means the file was rotated.
	ulong inode;
	ulong offset;
}

final class CheckpointStore
{
	private
	{
		string file;
		Position[string] positions;
		bool dirty;
	}

	this(string file)
	{
		this.file = file;
		if (file.length && exists(file))
			load();
	}

	Position* get(string path)
	{
		return path in positions;
	}

	void set(string path, Position p)
	{
		auto cur = path in positions;
		if (cur is null || *cur != p)
		{
			positions[path] = p;
			dirty = true;
		}
	}

	/// Writes the offsets if anything changed; atomic via rename.
	void save()
	{
		if (!dirty || file.length == 0)
			return;
		auto root = Json.emptyObject;
		foreach (path, p; positions)
		{
			auto e = Json.emptyObject;
			e["inode"] = p.inode;
			e["offset"] = p.offset;
			root[path] = e;
		}
		mkdirRecurse(dirName(file));
		immutable tmp = file ~ ".tmp";
		write(tmp, root.toPrettyString());
		rename(tmp, file);
		dirty = false;
	}

	private void load()
	{
		try
		{
			auto root = parseJsonString(readText(file), file);
			foreach (string path, e; root)
				positions[path] = Position(e["inode"].get!long, e["offset"].get!long);
			logInfo("checkpoint: resumed %s file(s) from %s", positions.length, file);
		}
		catch (Exception e)
		{
			// A corrupt checkpoint must not keep harrow from starting; the
			// files are then read according to tail.startAt.
			logWarn("checkpoint: ignoring %s: %s", file, e.msg);
		}
	}
}

unittest
{
	import std.file : remove, tempDir;
	import std.path : buildPath;
	import std.process : thisProcessID;
	import std.conv : to;

	immutable f = buildPath(tempDir, "harrow-cp-" ~ thisProcessID.to!string ~ ".json");
	scope (exit) if (exists(f)) remove(f);

	auto a = new CheckpointStore(f);
	a.set("/var/log/x.log", Position(1234, 5678));
	a.save();

	auto b = new CheckpointStore(f);
	auto p = b.get("/var/log/x.log");
	assert(p !is null && p.inode == 1234 && p.offset == 5678);
	assert(b.get("/nope") is null);
}
