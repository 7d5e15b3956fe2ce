/**
 * Follows one log file, like `tail -F`.
 *
 * The file is polled every `tail.pollIntervalMs`. New complete lines are
 * handed to the batcher; a trailing partial line waits for its newline.
 * Rotation is detected when the path points at a different inode (the file
 * was renamed and recreated) or the file became shorter than the current
 * offset (copytruncate); in both cases reading restarts at offset 0.
 */
module harrow.tailer;

import core.time : msecs;
import std.algorithm : countUntil;
import std.file : exists, getSize;
import std.stdio : File;

import vibe.core.core : sleep;
import vibe.core.log;

import harrow.batcher : Batcher;
import harrow.checkpoint : CheckpointStore, Position;
import harrow.config : SourceConfig, TailConfig;
import harrow.metrics : Metrics;
import harrow.record : makeRecord;

/// Lines longer than this are cut and the rest is shipped as a new line.
enum size_t maxLineBytes = 256 * 1024;
/// Read at most this much per poll so one busy file cannot starve the others.
enum size_t readChunkBytes = 64 * 1024;

final class FileTailer
{
	private
	{
		SourceConfig src;
		TailConfig cfg;
		CheckpointStore checkpoints;
		Batcher batcher;
		Metrics metrics;
		ulong inode;
		ulong offset;
		char[] partial;
		bool running = true;
	}

	this(SourceConfig src, TailConfig cfg, CheckpointStore checkpoints, Batcher batcher, Metrics metrics)
	{
		this.src = src;
		this.cfg = cfg;
		this.checkpoints = checkpoints;
		this.batcher = batcher;
		this.metrics = metrics;
	}

	/// Runs until `stop` is called. Never throws: errors are logged and the
	/// file is tried again on the next poll.
	void run() nothrow
	{
		try
			logInfo("tail: following %s as %s", src.path, tag);
		catch (Exception) {}

		bool opened;
		while (running)
		{
			try
			{
				if (!opened)
					opened = open();
				if (opened)
					poll();
			}
			catch (Exception e)
			{
				try
					logWarn("tail: %s: %s", src.path, e.msg);
				catch (Exception) {}
				opened = false;
			}
			try
				sleep(cfg.pollIntervalMs.msecs);
			catch (Exception) {}
		}
	}

	void stop() @safe nothrow
	{
		running = false;
	}

	/// The checkpoint for this file as of the last complete line read.
	Position position() const @safe pure nothrow @nogc
	{
		return Position(inode, offset);
	}

	private string tag() const @safe pure nothrow
	{
		return src.tag.length ? src.tag : src.path;
	}

	/// Picks the starting offset: the checkpoint if it still matches the
	/// file, otherwise the beginning or end according to `tail.startAt`.
	private bool open()
	{
		if (!exists(src.path))
			return false;
		immutable ino = inodeOf(src.path);
		immutable size = getSize(src.path);
		inode = ino;
		if (auto p = checkpoints.get(src.path))
		{
			if (p.inode == ino && p.offset <= size)
			{
				offset = p.offset;
				return true;
			}
		}
		offset = cfg.startAt == "end" ? size : 0;
		return true;
	}

	private void poll()
	{
		if (!exists(src.path))
			return; // between rename and re-create; keep the old position
		immutable ino = inodeOf(src.path);
		immutable size = getSize(src.path);
		if (ino != inode || size < offset)
		{
			logInfo("tail: %s was rotated (inode %s -> %s, size %s, offset %s)", src.path, inode, ino, size, offset);
			metrics.rotated(tag);
			inode = ino;
			offset = 0;
			partial = null;
		}
		if (size == offset)
			return;

		auto f = File(src.path, "rb");
		f.seek(offset + partial.length);
		ubyte[readChunkBytes] buf;
		auto got = f.rawRead(buf[]);
		partial ~= cast(char[]) got;
		splitLines();
	}

	private void splitLines()
	{
		while (true)
		{
			auto nl = partial.countUntil('\n');
			if (nl < 0)
			{
				if (partial.length >= maxLineBytes)
					nl = maxLineBytes;
				else
					break;
			}
			auto line = partial[0 .. nl];
			if (line.length && line[$ - 1] == '\r')
				line = line[0 .. $ - 1];
			immutable consumed = nl < partial.length && partial[nl] == '\n' ? nl + 1 : nl;
			batcher.add(makeRecord(tag, src.path, offset, line.idup));
			metrics.lineRead(tag);
			offset += consumed;
			partial = partial[consumed .. $];
		}
		checkpoints.set(src.path, position);
	}
}

private ulong inodeOf(string path)
{
	version (Posix)
	{
		import core.sys.posix.sys.stat : stat, stat_t;
		import std.string : toStringz;

		stat_t st;
		if (stat(path.toStringz, &st) != 0)
			return 0;
		return st.st_ino;
	}
	else
		return 0;
}
